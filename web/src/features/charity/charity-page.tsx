import { ComingSoon, Page } from "../../components/page";

export function CharityPage() {
  return (
    <Page title="Charity">
      <ComingSoon />
    </Page>
  );
}
