/** Secrets every process of a deployment must share (signing keys, generated session secret). */
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: number;
}
