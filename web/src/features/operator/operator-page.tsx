import { londonMonth } from "@charity-steps/shared-types";
import { useState } from "react";
import { LoadingSpinner } from "../../components/loading-spinner";
import { NotFoundPage } from "../../components/not-found-page";
import { Page } from "../../components/page";
import { useAuth } from "../../lib/use-auth";
import { AuditLog } from "./audit-log";
import { OperatorChallenges } from "./operator-challenges";
import { OperatorDraws } from "./operator-draws";
import { OperatorReviews } from "./operator-reviews";
import { OperatorWalkerReviews } from "./operator-walker-reviews";
import { PostalEntriesList } from "./postal-entries-list";
import { PostalEntryForm } from "./postal-entry-form";

/**
 * `/operator`: the console for operators; for anyone else the ordinary 404 page, so that the
 * console's existence is not revealed (the server refuses its API to them too).
 */
export function OperatorRoute() {
  const { isLoading, user } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  return user?.isOperator ? <OperatorConsole /> : <NotFoundPage />;
}

export function OperatorConsole() {
  const [month, setMonth] = useState(londonMonth);
  return (
    <Page title="Operator console">
      <PostalEntryForm onMonth={setMonth} onRecorded={(entry) => setMonth(entry.month)} />
      <PostalEntriesList month={month} onMonth={setMonth} />
      <OperatorReviews />
      <OperatorWalkerReviews />
      <OperatorDraws />
      <OperatorChallenges />
      <AuditLog />
    </Page>
  );
}
