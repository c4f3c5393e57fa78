/**
 * Reads the `(yardmaster.v1.field)` option of a field (proto/yardmaster/v1/common.proto, FieldRule).
 * Rules are read once per field and cached; a field without the option gets the empty rule.
 */
import { getOption, hasOption, type DescField } from "@bufbuild/protobuf";
import { field as fieldOption, type FieldRule } from "../../gen/yardmaster/v1/common_pb.js";

const EMPTY: Readonly<FieldRule> = Object.freeze({
  $typeName: "yardmaster.v1.FieldRule",
  nullable: false,
  omittable: false,
  oneOf: [],
  format: "",
  minLen: 0,
  maxLen: 0,
  pattern: "",
  min: 0n,
  hasMin: false,
  required: false,
  integerOrUuid: false,
  max: 0n,
  hasMax: false,
  maxItems: 0,
}) as FieldRule;

/** A FieldRule with its pattern compiled. */
export interface CompiledRule {
  rule: Readonly<FieldRule>;
  /** Anchored RegExp of `rule.pattern`; undefined when no pattern. */
  pattern?: RegExp;
  /** `rule.oneOf` as a set; undefined when no restriction. */
  oneOf?: ReadonlySet<string>;
}

const cache = new WeakMap<DescField, CompiledRule>();

/** The compiled rule of a field (the empty rule when the field has no option). */
export function ruleOf(field: DescField): CompiledRule {
  let compiled = cache.get(field);
  if (!compiled) {
    const rule = hasOption(field, fieldOption) ? getOption(field, fieldOption) : EMPTY;
    compiled = {
      rule,
      pattern: rule.pattern
        ? new RegExp(rule.pattern.startsWith("^") ? rule.pattern : `^(?:${rule.pattern})$`, "u")
        : undefined,
      oneOf: rule.oneOf.length ? new Set(rule.oneOf) : undefined,
    };
    cache.set(field, compiled);
  }
  return compiled;
}
