/**
 * Subscription payments, one per walker and month paid. The free beta takes none, so the table is
 * empty and every share of revenue (the prize pool among them) is £0.00 until the paid launch.
 */
export interface SubscriptionPaymentsTable {
  id: string;
  user_id: string | null;
  month: string;
  amount_pence: number;
  created_at: number;
}
