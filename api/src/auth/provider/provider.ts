import type { FastifyBaseLogger } from "fastify";
import Provider, {
  type ClientMetadata,
  type Configuration,
  interactionPolicy,
  type KoaContextWithOIDC,
} from "oidc-provider";
import type { AppConfig } from "../../config.js";
import { isFromAnotherSite } from "../../plugins/csrf.js";
import type { LocalAccountsRepository } from "../../repositories/local-accounts.js";
import type { OidcPayloadsRepository } from "../../repositories/oidc-payloads.js";
import { DatabaseOidcAdapter } from "./adapter.js";
import type { loadSigningKey } from "./keys.js";
import { messagePage, signOutPage } from "./pages.js";

export interface IdentityProviderOptions {
  /** `${origin}/oidc`: the provider is mounted at the issuer's path. */
  issuer: string;
  clients: ClientMetadata[];
  cookieKey: string;
  signingKey: Awaited<ReturnType<typeof loadSigningKey>>;
  accounts: LocalAccountsRepository;
  payloads: OidcPayloadsRepository;
  log: FastifyBaseLogger;
}

export const SCOPES = "openid profile email";

/** The built-in provider's issuer, at its path on the app's own origin. */
export const builtInIssuer = (publicUrl: string): string => `${publicUrl}/oidc`;

/** The built-in provider's issuer when the app runs it (an external issuer has no accounts here). */
export function builtInIssuerOf(config: Pick<AppConfig, "oidc" | "publicUrl">): string | null {
  return config.oidc.kind === "built-in" ? builtInIssuer(config.publicUrl) : null;
}

/**
 * The provider's prompts: its usual login and consent, with `create` before them, so that a client
 * that asks for `prompt=create` (the landing page's Get Started) opens on the sign-up form. A
 * finished interaction answers it whichever form the walker used.
 */
function promptsWithCreate() {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: "create", requestable: true }), 0);
  return policy;
}

/** Consent given on the walker's behalf: every registered client is one of our own apps. */
async function grantOwnClient(provider: Provider, accountId: string, clientId: string) {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(SCOPES);
  await grant.save();
  return grant;
}

/** The built-in OpenID Connect provider (oidc-provider) with real local accounts. */
export function createIdentityProvider(options: IdentityProviderOptions): Provider {
  const { accounts, payloads } = options;
  const secure = new URL(options.issuer).protocol === "https:";
  const issuerOrigin = new URL(options.issuer).origin;
  const policy = promptsWithCreate();
  const configuration: Configuration = {
    adapter: (model: string) => new DatabaseOidcAdapter(model, payloads),
    clients: options.clients,
    cookies: {
      keys: [options.cookieKey],
      // Lax, not the default None: every page that reads these cookies is reached by a top-level
      // navigation or a form on the provider's own origin. Secure whenever the issuer is https.
      long: { httpOnly: true, sameSite: "lax", secure },
      short: { httpOnly: true, sameSite: "lax", secure },
    },
    jwks: { keys: [options.signingKey] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name", "name"],
    },
    async findAccount(_ctx, accountId) {
      const account = await accounts.findById(accountId);
      if (!account) return undefined;
      return {
        accountId,
        claims: async () => ({
          sub: accountId,
          email: account.email,
          email_verified: account.email_verified_at !== null,
          given_name: account.first_name,
          family_name: account.last_name,
          name: `${account.first_name} ${account.last_name}`,
        }),
      };
    },
    interactions: { policy, url: async (_ctx, interaction) => `/auth/interaction/${interaction.uid}` },
    // Said in discovery (this version leaves it out), so that a client knows it may ask for `create`.
    discovery: {
      prompt_values_supported: [
        "none",
        ...policy.filter((prompt) => prompt.requestable).map(({ name }) => name),
      ],
    },
    // Our clients are our own apps: the walker is not asked to consent to sharing their name.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      return grantOwnClient(ctx.oidc.provider, session.accountId, client.clientId);
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = "html";
          ctx.body = signOutPage(form, isFromAnotherSite(ctx.headers, issuerOrigin));
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = "html";
          ctx.body = messagePage("You're signed out", "You have been signed out of Charity Steps.", {
            href: "/",
            label: "Back to Charity Steps",
          });
        },
      },
    },
    ttl: {
      AccessToken: 10 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Grant: 30 * 86_400,
      Session: 30 * 86_400,
    },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = messagePage(
        "Sign-in problem",
        `The sign-in could not continue (${String(out.error_description ?? out.error)}). Please start again.`,
        { href: "/api/login", label: "Sign in again" },
      );
    },
  };
  const provider = new Provider(options.issuer, configuration);
  // The mount sets the request's host and scheme to the issuer's own (asIssuerRequest in plugin.ts),
  // and the provider reads them from X-Forwarded-Host and X-Forwarded-Proto.
  provider.proxy = true;
  provider.on("server_error", (_ctx, error) => options.log.error({ err: error }, "identity provider error"));
  return provider;
}
