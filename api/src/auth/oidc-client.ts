import { trimInvisible, withoutControlCharacters } from "@charity-steps/shared-types";
import fastifyCookie from "@fastify/cookie";
import fastifyOauth2, { type OAuth2Namespace } from "@fastify/oauth2";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { AppError, BadRequestError } from "../errors.js";
import type { VerifiedIdentity } from "../repositories/users.js";

export interface OidcClientOptions {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the walker back: `${PUBLIC_URL}/api/callback`. */
  callbackUrl: string;
  /** Where the provider sends the walker after signing out of it. */
  postLogoutUrl: string;
  secureCookies: boolean;
}

/** The fields of the provider's discovery document this client uses. */
interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  end_session_endpoint?: string;
  /** `create` among them: the provider can open on its sign-up form. */
  prompt_values_supported?: string[];
}

interface Connection {
  oauth: OAuth2Namespace;
  metadata: ProviderMetadata;
}

export class IdentityProviderUnavailableError extends AppError {
  constructor() {
    super(502, "The sign-in service could not be reached. Please try again in a moment.");
  }
}

export const SIGN_IN_FAILED_MESSAGE =
  "Sign-in could not be completed: the sign-in request expired or did not match. Please sign in again.";

const STATE_COOKIE = "cs_oauth_state";
const VERIFIER_COOKIE = "cs_oauth_verifier";

/**
 * The app's OpenID Connect client: authorization code + PKCE (S256) + state, via @fastify/oauth2,
 * configured from the issuer's discovery document. Discovery runs on the first sign-in rather than
 * at boot, because the built-in provider is served by this very process and cannot answer before it
 * listens (and an external provider being down must not stop the API from starting).
 */
export class OidcClient {
  private connection: Promise<Connection> | null = null;

  constructor(private readonly options: OidcClientOptions) {}

  /**
   * Where to send the walker to sign in; with `signUp`, to create an account instead, where the
   * provider supports `prompt=create` (elsewhere its sign-in page, which offers sign-up itself).
   */
  async authorizationUrl(
    request: FastifyRequest,
    reply: FastifyReply,
    { signUp = false } = {},
  ): Promise<string> {
    const { oauth, metadata } = await this.connect();
    const url = new URL(await oauth.generateAuthorizationUri(request, reply));
    if (signUp && metadata.prompt_values_supported?.includes("create"))
      url.searchParams.set("prompt", "create");
    return url.href;
  }

  /** Checks state and issuer, redeems the code with the PKCE verifier, and reads the walker's claims. */
  async completeSignIn(request: FastifyRequest, reply: FastifyReply, iss: string | undefined) {
    const { oauth, metadata } = await this.connect();
    // RFC 9207: a provider that names itself must be the one we sent the walker to.
    if (iss !== undefined && iss !== metadata.issuer) {
      throw new BadRequestError(SIGN_IN_FAILED_MESSAGE);
    }
    let accessToken: string;
    try {
      const { token } = await oauth.getAccessTokenFromAuthorizationCodeFlow(request, reply);
      accessToken = token.access_token;
    } catch (error) {
      if (isRefusedByProvider(error)) throw new BadRequestError(SIGN_IN_FAILED_MESSAGE);
      throw new IdentityProviderUnavailableError();
    } finally {
      reply.clearCookie(STATE_COOKIE, this.cookieOptions());
    }
    return this.userInfo(metadata, accessToken);
  }

  /** Where to send the walker to end their session at the provider too, if it supports that. */
  async endSessionUrl(): Promise<string | null> {
    const { metadata } = await this.connect();
    if (!metadata.end_session_endpoint) return null;
    const url = new URL(metadata.end_session_endpoint);
    url.searchParams.set("client_id", this.options.clientId);
    url.searchParams.set("post_logout_redirect_uri", this.options.postLogoutUrl);
    return url.href;
  }

  private connect(): Promise<Connection> {
    this.connection ??= this.discover().catch((error) => {
      this.connection = null;
      throw error;
    });
    return this.connection;
  }

  private async discover(): Promise<Connection> {
    const { issuerUrl, clientId, clientSecret, callbackUrl } = this.options;
    const metadata = await fetchJson<ProviderMetadata>(`${issuerUrl}/.well-known/openid-configuration`);
    if (metadata.issuer !== issuerUrl) {
      throw new Error(`Discovery for ${issuerUrl} named another issuer: ${metadata.issuer}`);
    }
    const authorize = new URL(metadata.authorization_endpoint);
    const token = new URL(metadata.token_endpoint);
    // @fastify/oauth2 takes its endpoints at registration, so it lives on a private instance that
    // is registered once the metadata is known; its helpers work on this app's requests and replies.
    const holder = Fastify({ logger: false });
    await holder.register(fastifyCookie);
    await holder.register(fastifyOauth2, {
      name: "oidc",
      scope: ["openid", "profile", "email"],
      credentials: {
        client: { id: clientId, secret: clientSecret },
        auth: {
          authorizeHost: authorize.origin,
          authorizePath: authorize.pathname,
          tokenHost: token.origin,
          tokenPath: token.pathname,
        },
      },
      callbackUri: callbackUrl,
      pkce: "S256",
      redirectStateCookieName: STATE_COOKIE,
      verifierCookieName: VERIFIER_COOKIE,
      cookie: this.cookieOptions(),
    });
    await holder.ready();
    return { oauth: (holder as unknown as { oidc: OAuth2Namespace }).oidc, metadata };
  }

  private cookieOptions() {
    return { path: "/api", httpOnly: true, sameSite: "lax", secure: this.options.secureCookies } as const;
  }

  private async userInfo(metadata: ProviderMetadata, accessToken: string): Promise<VerifiedIdentity> {
    const claims = await fetchJson<Record<string, unknown>>(metadata.userinfo_endpoint, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (typeof claims.sub !== "string" || claims.sub === "") throw new IdentityProviderUnavailableError();
    // Control characters and bidirectional overrides are taken out: no name or email holds one, and
    // PostgreSQL cannot store NUL.
    const text = (key: string) => {
      const value =
        typeof claims[key] === "string" ? trimInvisible(withoutControlCharacters(claims[key])) : "";
      return value === "" ? null : value;
    };
    return {
      issuer: metadata.issuer,
      subject: claims.sub,
      email: text("email"),
      firstName: text("given_name"),
      lastName: text("family_name"),
      pictureUrl: text("picture"),
      emailVerified: claims.email_verified === true,
    };
  }
}

async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new IdentityProviderUnavailableError();
  }
  if (!response.ok) throw new IdentityProviderUnavailableError();
  return (await response.json()) as T;
}

/** State mismatch, or the provider refusing the code (wrong PKCE verifier, reused or expired code). */
function isRefusedByProvider(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message === "Invalid state") return true;
  const status = (error as { output?: { statusCode?: number } }).output?.statusCode;
  return status !== undefined && status >= 400 && status < 500;
}
