import type { Adapter, AdapterPayload } from "oidc-provider";
import type { OidcPayloadsRepository, StoredPayload } from "../../repositories/oidc-payloads.js";

/** oidc-provider's storage for one model (Session, Interaction, Grant, AuthorizationCode, …), in SQL. */
export class DatabaseOidcAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: OidcPayloadsRepository,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : null;
    await this.store.upsert(this.model, id, payload as StoredPayload, expiresAt);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return (await this.store.find(this.model, id)) as AdapterPayload | undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return (await this.store.findByUserCode(this.model, userCode)) as AdapterPayload | undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return (await this.store.findByUid(this.model, uid)) as AdapterPayload | undefined;
  }

  async consume(id: string): Promise<void> {
    await this.store.consume(this.model, id);
  }

  async destroy(id: string): Promise<void> {
    await this.store.destroy(this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.store.revokeByGrantId(grantId);
  }
}
