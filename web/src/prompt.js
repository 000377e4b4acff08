// Executed-query rendering, ActDecision parsing and the ActDecision schema:
// thin wrappers over wasm/prompt_bindings.cpp (prompt assembly itself uses
// the byte transfer in core.js). Inputs cross the boundary as
// JSON text; every call returns `{ data, error }` and never throws.
import { AlfredError, internalError } from './errors.js';

/**
 * The JSON Schema of the Act model's output, valid under OpenAI strict
 * structured outputs (every property required, nullable as `["type", "null"]`,
 * `additionalProperties: false`). `params.data` and `data` are JSON text:
 * strict mode has no open objects. Same as prompts/act/decision.schema.json.
 *
 * @example
 * const response = await openai.chat.completions.create({ model, messages,
 *   response_format: { type: 'json_schema', json_schema: { name: 'act_decision', strict: true, schema: actDecisionSchema } } })
 * const { data: decision, error } = core.parseDecision(response.choices[0].message.content, { stepType: 'read' })
 */
export const actDecisionSchema = deepFreeze({
  "type": "object",
  "description": "The Act step's next action. Every field is present; fields the action does not use are null.",
  "properties": {
    "action": {
      "type": "string",
      "enum": [
        "tool_call",
        "step_complete",
        "ask_user",
        "blocked",
        "fail"
      ]
    },
    "tool": {
      "type": [
        "string",
        "null"
      ],
      "enum": [
        "db_read",
        "db_create",
        "db_update",
        "db_delete",
        null
      ]
    },
    "params": {
      "anyOf": [
        {
          "$ref": "#/$defs/params"
        },
        {
          "type": "null"
        }
      ]
    },
    "summary": {
      "type": [
        "string",
        "null"
      ],
      "description": "step_complete: what the step accomplished, one line."
    },
    "data": {
      "type": [
        "string",
        "null"
      ],
      "description": "step_complete: the step's output (analysis result, generated content) as JSON text."
    },
    "note_for_next_step": {
      "type": [
        "string",
        "null"
      ],
      "description": "step_complete: refs and facts the next step needs."
    },
    "question": {
      "type": [
        "string",
        "null"
      ],
      "description": "ask_user: the question for the user."
    },
    "reason_code": {
      "type": [
        "string",
        "null"
      ],
      "enum": [
        "INSUFFICIENT_INFO",
        "PLAN_INVALID",
        "TOOL_FAILURE",
        null
      ]
    },
    "details": {
      "type": [
        "string",
        "null"
      ],
      "description": "blocked or fail: what is wrong."
    },
    "suggested_next": {
      "type": [
        "string",
        "null"
      ],
      "enum": [
        "ask_user",
        "replan",
        "fail",
        null
      ]
    }
  },
  "required": [
    "action",
    "tool",
    "params",
    "summary",
    "data",
    "note_for_next_step",
    "question",
    "reason_code",
    "details",
    "suggested_next"
  ],
  "additionalProperties": false,
  "$defs": {
    "params": {
      "type": "object",
      "description": "The tool's parameters; those the tool does not take are null.",
      "properties": {
        "table": {
          "type": "string"
        },
        "filters": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "$ref": "#/$defs/filter"
          }
        },
        "or_filters": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "$ref": "#/$defs/filter"
          }
        },
        "columns": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "string"
          }
        },
        "limit": {
          "type": [
            "integer",
            "null"
          ]
        },
        "offset": {
          "type": [
            "integer",
            "null"
          ]
        },
        "order_by": {
          "type": [
            "string",
            "null"
          ]
        },
        "order_dir": {
          "type": [
            "string",
            "null"
          ],
          "enum": [
            "asc",
            "desc",
            null
          ]
        },
        "data": {
          "type": [
            "string",
            "null"
          ],
          "description": "db_create: one row object or a list of rows; db_update: the columns to change. As JSON text."
        }
      },
      "required": [
        "table",
        "filters",
        "or_filters",
        "columns",
        "limit",
        "offset",
        "order_by",
        "order_dir",
        "data"
      ],
      "additionalProperties": false
    },
    "filter": {
      "type": "object",
      "description": "One condition: {field, op, value}.",
      "properties": {
        "field": {
          "type": "string",
          "description": "A column of the table, or _semantic for op similar."
        },
        "op": {
          "type": "string",
          "enum": [
            "=",
            "!=",
            ">",
            ">=",
            "<",
            "<=",
            "in",
            "not_in",
            "like",
            "ilike",
            "not_like",
            "not_ilike",
            "is_null",
            "is_not_null",
            "contains",
            "contained_by",
            "overlaps",
            "similar"
          ]
        },
        "value": {
          "description": "A scalar of the column's type, a list for in/not_in/contains/contained_by/overlaps, null for is_null/is_not_null.",
          "anyOf": [
            {
              "type": "string"
            },
            {
              "type": "number"
            },
            {
              "type": "boolean"
            },
            {
              "type": "null"
            },
            {
              "type": "array",
              "items": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "number"
                  },
                  {
                    "type": "boolean"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            }
          ]
        }
      },
      "required": [
        "field",
        "op",
        "value"
      ],
      "additionalProperties": false
    }
  }
});

function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function asResult(run) {
  try {
    return run();
  } catch (cause) {
    if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
    return { data: null, error: internalError(cause) };
  }
}

function jsonOf(value, path) {
  try {
    return JSON.stringify(value ?? null);
  } catch (cause) {
    throw new AlfredError({ code: 'invalid_option', path, message: `${path} cannot be written as JSON: ${cause?.message ?? cause}` });
  }
}

/** @internal Core#renderQuery. */
export function renderQuery(core, module, record, { style = 'block' } = {}) {
  return asResult(() => {
    const text = jsonOf(record, 'record');
    core.checkInput(text, 'record');
    return JSON.parse(core.callWithInput(text, (length) => module.renderQueryAt(length, String(style))));
  });
}

/** @internal Core#parseDecision. */
export function parseDecision(core, module, text, { stepType } = {}) {
  return asResult(() => {
    const reply = String(text ?? '');
    core.checkInput(reply, 'text');
    const step = stepType ? String(stepType).slice(0, 80) : '';
    return JSON.parse(core.callWithInput(reply, (length) => module.parseDecisionAt(length, step)));
  });
}
