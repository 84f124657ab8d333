import { ArrowLeft } from "lucide-react";
import { Link, useLocation } from "react-router-dom";
import { paths } from "../../app/paths";
import { ComingSoon, Page } from "../../components/page";
import { groupIdFromPath } from "./group-id";

export function GroupDetailPage() {
  const groupId = groupIdFromPath(useLocation().pathname);
  return (
    <Page
      title="Group"
      back={
        <Link to={paths.groups} className="link inline-flex items-center gap-1">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to groups
        </Link>
      }
    >
      {groupId > 0 ? <ComingSoon /> : <p className="card p-4 text-muted">This link does not name a group.</p>}
    </Page>
  );
}
