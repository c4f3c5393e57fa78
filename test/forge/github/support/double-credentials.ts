/**
 * The GitHub test double's authentication, as GitHub's: the App's key pair (App endpoints need a
 * JWT signed with the App's private key, RS256, `iss` the App id, `exp` at most 10 minutes after
 * `iat`: https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-json-web-token-jwt-for-a-github-app),
 * the installation access tokens the double issued, and the user tokens it knows.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from "node:crypto";
import type { Answer } from "./double-answers.js";

/** The operations that GitHub authenticates with the App's JWT. */
const APP_OPERATIONS = new Set([
  "apps/get-repo-installation",
  "apps/create-installation-access-token",
  "apps/list-installations",
  "apps/list-webhook-deliveries",
  "apps/get-webhook-delivery",
  "apps/redeliver-webhook-delivery",
]);
/** Operations a user token (not an installation token) may call. */
const USER_OPERATIONS = new Set(["users/get-authenticated", "repos/get", "apps/list-repos-accessible-to-installation"]);

/** The credentials the double knows for the App `appId`, and the check of a request's `Authorization`. */
export class DoubleCredentials {
  /** The App's private key as GitHub hands it out (PKCS#1 PEM). */
  readonly privateKey: string;
  private readonly publicKey: KeyObject;
  /** Installation access tokens issued, with the installation each acts for. */
  readonly installationTokens = new Map<string, number>();
  /** User tokens: token → user and the repositories (lower case) it can read. */
  readonly users = new Map<string, { login: string; id: number; readable: Set<string>; installation?: boolean }>();

  constructor(private readonly appId: number) {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.privateKey = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    this.publicKey = createPublicKey(privateKey);
  }

  private verifyJwt(jwt: string): boolean {
    const [h, p, s] = jwt.split(".");
    if (!h || !p || !s) return false;
    if (!verify("RSA-SHA256", Buffer.from(`${h}.${p}`), this.publicKey, Buffer.from(s, "base64url"))) return false;
    const claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8")) as {
      iss?: unknown;
      exp?: number;
      iat?: number;
    };
    // GitHub: iss is the App id (or client id); exp at most 10 minutes after iat.
    return (
      String(claims.iss) === String(this.appId) &&
      typeof claims.exp === "number" &&
      typeof claims.iat === "number" &&
      claims.exp - claims.iat <= 600
    );
  }

  /** Issues an installation access token (POST /app/installations/{id}/access_tokens). */
  issueInstallationToken(installationId = 0): string {
    const token = `ghs_${randomBytes(18).toString("hex")}`;
    this.installationTokens.set(token, installationId);
    return token;
  }

  /**
   * Null when `authorization` may call `operationId`, else GitHub's 401 "Bad credentials"; the
   * App's JWT used where an installation token is needed is also pushed to `problems`.
   */
  authorize(operationId: string, authorization: string, problems: string[]): Answer | null {
    const [scheme, credential = ""] = authorization.split(" ");
    const denied: Answer = {
      status: 401,
      body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" },
    };
    if (APP_OPERATIONS.has(operationId))
      return scheme.toLowerCase() === "bearer" && this.verifyJwt(credential) ? null : denied;
    if (this.installationTokens.has(credential)) return null;
    if (this.users.has(credential) && USER_OPERATIONS.has(operationId)) return null;
    if (this.verifyJwt(credential)) {
      problems.push(`${operationId}: called with the App's JWT instead of an installation token`);
    }
    return denied;
  }
}
