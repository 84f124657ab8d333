import { ComingSoon, Page } from "../../components/page";

export function GroupsPage() {
  return (
    <Page title="Groups">
      <ComingSoon />
    </Page>
  );
}
