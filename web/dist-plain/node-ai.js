import {
  SURFACE,
  WRITE_TOOLS,
  callKey,
  callWrites,
  codes,
  modelJson,
  needsApproval,
  surfaceApprove
} from "./node-shared-B27DOBPA.js";

// web/src/adapters/ai.js
import { jsonSchema, tool } from "ai";
var VERBS = { db_create: "Create", db_update: "Change", db_delete: "Delete" };
var FROM_AI = Object.freeze({ [SURFACE]: "ai" });
function approvedInMessages(messages, toolCallId, toolName, input) {
  if (!Array.isArray(messages) || typeof toolCallId !== "string") return false;
  let request = null;
  let used = false;
  let latestCall = null;
  const approvals = /* @__PURE__ */ new Set();
  for (const message of messages) {
    if (!Array.isArray(message?.content)) continue;
    if (message.role === "assistant") {
      for (const part of message.content) if (part?.type === "tool-call" && part.toolCallId === toolCallId) latestCall = part;
      for (const part of message.content) {
        if (part?.type !== "tool-approval-request" || part.toolCallId !== toolCallId) continue;
        request = { approvalId: part.approvalId, call: latestCall };
        used = false;
      }
    }
    if (message.role === "tool") {
      for (const part of message.content) {
        if (part?.type === "tool-approval-response" && part.approved === true) approvals.add(part.approvalId);
        if (part?.type === "tool-result" && part.toolCallId === toolCallId && request) used = true;
      }
    }
  }
  if (!request || used || !approvals.has(request.approvalId) || !request.call) return false;
  if (request.call.toolName !== toolName) return false;
  const given = callInput(request.call.input);
  const key = callKey(toolName, given);
  return key !== null && key === callKey(toolName, callInput(input));
}
function heldTools(act) {
  const approve = surfaceApprove(act, "ai");
  return (name) => typeof approve === "string" && needsApproval(approve, name);
}
function previewingApproval(act, name, onPreview) {
  return async (input, { toolCallId } = {}) => {
    if (name === "db_call" && !callWrites(act.domain, "db_call", callInput(input))) return false;
    const outcome = await act.execute(name, callInput(input), FROM_AI);
    const preview = outcome.error?.code === codes.approval_required ? outcome.error.preview : null;
    if (!preview) return false;
    try {
      onPreview?.(preview, { toolCallId, toolName: name, input, reason: describe(preview) });
    } catch {
    }
    return true;
  };
}
function aiTools(act, { strict = true, tools: names, schema, onPreview } = {}) {
  if (!act || typeof act.tools !== "function" || typeof act.callToolText !== "function") {
    throw new TypeError("aiTools(act): act must come from core.createAct() (or an awaited createAct().ready)");
  }
  const definitions = act.tools({ strict, schema });
  const wanted = names === void 0 ? null : new Set(names);
  if (wanted) {
    const known = new Set(definitions.map((definition) => definition.name));
    for (const name of wanted) {
      if (!known.has(name)) throw new TypeError(`aiTools(act, { tools }): '${name}' is not one of ${[...known].join(", ")}`);
    }
  }
  if (onPreview !== void 0 && typeof onPreview !== "function") throw new TypeError("aiTools(act, { onPreview }): onPreview must be a function (preview, { toolCallId, toolName, input, reason }) => void");
  const held = heldTools(act);
  const out = {};
  for (const definition of definitions) {
    if (wanted && !wanted.has(definition.name)) continue;
    const holds = held(definition.name);
    out[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(structuredClone(definition.parameters)),
      strict,
      ...holds ? { needsApproval: previewingApproval(act, definition.name, onPreview) } : {},
      execute: async (input, { abortSignal, toolCallId, messages } = {}) => {
        const approved = holds && approvedInMessages(messages, toolCallId, definition.name, input);
        const text = await act.callToolText(definition.name, input, { signal: abortSignal, ...FROM_AI, ...approved ? { approved: true } : {} });
        const result = JSON.parse(text);
        modelTexts.set(result, text);
        return result;
      },
      toModelOutput: modelOutput
    });
  }
  return out;
}
function callInput(input) {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch {
    return null;
  }
}
var modelTexts = /* @__PURE__ */ new WeakMap();
function modelOutput(given) {
  const output = given && typeof given === "object" && "toolCallId" in given && "output" in given ? given.output : given;
  const text = output && typeof output === "object" ? modelTexts.get(output) : void 0;
  return text === void 0 ? { type: "json", value: output } : { type: "text", value: text };
}
var quotedLabel = (value) => modelJson(value.length > 60 ? `${value.slice(0, 59)}\u2026` : value);
function describe(preview) {
  if (preview.tool === "db_call") {
    const args = Object.entries(preview.args ?? {}).map(([name, value]) => {
      const label2 = preview.argumentLabels?.[name];
      return `${name} = ${modelJson(value)}${label2 ? ` (${modelJson(label2)})` : ""}`;
    });
    return `Run ${preview.function} (it changes data)${args.length ? ` with ${args.join(", ")}` : ""}`.slice(0, 400);
  }
  const label = (row) => preview.tool === "db_create" ? modelJson(row).slice(0, 120) : Object.entries(row).filter(([column, value]) => typeof value === "string" && !column.startsWith("_")).map(([column, value], index) => index === 0 && column === "id" ? value : quotedLabel(value)).join(" ");
  const shown = preview.rows.map(label).join("; ");
  const more = preview.count > preview.rows.length ? ` and ${preview.count - preview.rows.length} more` : "";
  const change = preview.tool === "db_update" && preview.data !== void 0 ? ` to ${modelJson(preview.data).slice(0, 200)}` : "";
  return `${VERBS[preview.tool]} ${preview.count} ${preview.count === 1 ? "row" : "rows"} of ${preview.table}${change}${shown ? `: ${shown}` : ""}${more}`;
}
function aiToolApproval(act, { onPreview } = {}) {
  if (!act || typeof act.execute !== "function" || typeof act.tools !== "function" || !act.policy) {
    throw new TypeError("aiToolApproval(act): act must come from core.createAct() (or an awaited createAct().ready)");
  }
  const held = heldTools(act);
  const offered = new Set(act.tools().map((definition) => definition.name));
  const out = {};
  for (const name of WRITE_TOOLS) {
    if (!held(name) || !offered.has(name)) continue;
    out[name] = async (input, { toolCallId } = {}) => {
      if (name === "db_call" && !callWrites(act.domain, name, callInput(input))) return "not-applicable";
      const outcome = await act.execute(name, callInput(input), FROM_AI);
      if (outcome.error?.code !== codes.approval_required || !outcome.error.preview) return "not-applicable";
      try {
        onPreview?.(outcome.error.preview, { toolCallId, toolName: name, input });
      } catch {
      }
      return { type: "user-approval", reason: describe(outcome.error.preview) };
    };
  }
  return out;
}
export {
  aiToolApproval,
  aiTools
};
