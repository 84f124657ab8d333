import { ComingSoon, Page } from "../../components/page";

export function PrizeDrawPage() {
  return (
    <Page title="Prize Draw">
      <ComingSoon />
    </Page>
  );
}
