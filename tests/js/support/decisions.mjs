// ActDecisions as a model under OpenAI strict structured outputs writes them:
// every field present, unused ones null, free-form `data` as JSON text.

const UNUSED = {
  tool: null,
  params: null,
  summary: null,
  data: null,
  note_for_next_step: null,
  question: null,
  reason_code: null,
  details: null,
  suggested_next: null,
};
const UNUSED_PARAMS = { filters: null, or_filters: null, columns: null, limit: null, offset: null, order_by: null, order_dir: null, data: null };

const jsonText = (value) => (value === undefined || value === null ? null : JSON.stringify(value));

/** A tool call; `params` as a tool takes it (`data` as an object or list), or null. */
export function toolCall(tool, params) {
  const strictParams = params === null ? null : { ...UNUSED_PARAMS, ...params, data: jsonText(params.data) };
  return { ...UNUSED, action: 'tool_call', tool, params: strictParams };
}

export const stepComplete = (summary, data = null, note = null) => ({
  ...UNUSED,
  action: 'step_complete',
  summary,
  data: jsonText(data),
  note_for_next_step: note,
});

export const askUser = (question) => ({ ...UNUSED, action: 'ask_user', question });

export const blocked = (details, reason_code = 'TOOL_FAILURE') => ({ ...UNUSED, action: 'blocked', reason_code, details, suggested_next: 'ask_user' });

/** A filter clause. */
export const where = (field, op, value = null) => ({ field, op, value });
