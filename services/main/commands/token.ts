import type { Command } from "commander";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { TokenService } from "../../../gen/yardmaster/v1/admin_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** `yardmaster token create|list|revoke`: tokens issued by the service (docs/auth.md), through the TokenService RPCs. */
export function registerToken(program: Command): void {
  const token = program.command("token").description("tokens issued by the service (admin key required)");
  token
    .command("create")
    .description("issue a token for one or more repositories; prints the secret once")
    .requiredOption(
      "--repo <owner/name>",
      "a repository the token reaches (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--description <text>", "who or what the token is for", "")
    .action(async (opts: { repo: string[]; description: string }) => {
      const client = await serviceClient(TokenService, readSettings());
      const res = await client.createToken({ repositories: opts.repo, description: opts.description });
      out(res.secret);
      process.stderr.write(
        `token ${res.token!.id} for ${res.token!.repositories.join(", ")}; the secret above is shown only once\n`,
      );
    });
  token
    .command("list")
    .description("list issued tokens (without secrets)")
    .action(async () => {
      const client = await serviceClient(TokenService, readSettings());
      const res = await client.listTokens({});
      for (const t of res.tokens) {
        const state = t.revokedAt ? `revoked ${timestampDate(t.revokedAt).toISOString()}` : "active";
        out(`${t.id}  ${state}  ${t.repositories.join(",")}  ${t.description}`);
      }
    });
  token
    .command("revoke <id>")
    .description("revoke a token")
    .action(async (id: string) => {
      const client = await serviceClient(TokenService, readSettings());
      const res = await client.revokeToken({ id });
      out(`revoked ${res.token!.id}`);
    });
}
