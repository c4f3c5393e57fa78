/**
 * The REST error body of an INVALID_ARGUMENT (docs/errors.md): the field violations come from an
 * error raised in this process, or from the `google.rpc.BadRequest` detail of one received over
 * the wire from another Yardmaster process (split deployment) — the body is the same.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { errorFromJson, errorToJson } from "@connectrpc/connect/protocol-connect";
import { describe, expect, it } from "vitest";
import { BadRequestSchema } from "../../gen/google/rpc/bad_request_pb.js";
import { InvalidArgumentError } from "../../services/contracts/index.js";
import { restError } from "../../services/gateway/error-body.js";

const violations = [
  { field: "per_page", description: "must be between 1 and 100" },
  { field: "received_from", description: "must be an ISO 8601 date with a UTC offset" },
];

describe("REST error body of an INVALID_ARGUMENT", () => {
  it("lists every violation of an error raised here, and puts them on the wire as google.rpc.BadRequest", () => {
    const e = new InvalidArgumentError(violations);
    expect(
      e.findDetails(BadRequestSchema)[0]?.fieldViolations.map((v) => ({ field: v.field, description: v.description })),
    ).toEqual(violations);
    const { status, body } = restError(e, "r1");
    expect(status).toBe(422);
    expect(body.message).toBe("per_page: must be between 1 and 100 (and 1 more)");
    expect(body.details).toEqual([
      ...violations.map((v) => ({ type: "field_violation", ...v })),
      { type: "request_info", request_id: "r1" },
    ]);
  });

  it("gives the same body for the error after a trip over the Connect protocol", () => {
    const received = errorFromJson(
      errorToJson(new InvalidArgumentError(violations), undefined),
      undefined,
      new ConnectError("fallback", Code.Internal),
    );
    expect("violations" in received).toBe(false); // a plain ConnectError: only its wire details name the fields
    expect(restError(received, "r2").body.details).toEqual([
      ...violations.map((v) => ({ type: "field_violation", ...v })),
      { type: "request_info", request_id: "r2" },
    ]);
  });

  it("adds no field violation to other errors", () => {
    expect(
      restError(new ConnectError("pull request #4 is in no merge queue", Code.NotFound), "r3").body.details,
    ).toEqual([{ type: "request_info", request_id: "r3" }]);
  });
});
