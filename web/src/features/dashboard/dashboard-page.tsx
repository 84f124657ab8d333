import { ComingSoon, Page } from "../../components/page";

export function DashboardPage() {
  return (
    <Page title="Dashboard">
      <ComingSoon />
    </Page>
  );
}
