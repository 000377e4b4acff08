// The one place that knows the shape core.buildActPrompt takes
// (core/src/prompt/prompt_input.cpp; unknown keys are errors there): the loop's
// step, context and this step's tool results → the prompt assembly input.

/** Today as YYYY-MM-DD in UTC; the prompt needs the full date for relative days. */
export const todayIso = () => new Date().toISOString().slice(0, 10);

// A finished step as the prompt's step history reads it.
const stepRecord = (step) => ({
  index: step.index,
  type: step.type,
  description: step.description,
  summary: step.summary || null,
  note: step.note,
  results: step.queries,
  data: step.type === 'analyze' || step.type === 'generate' ? step.data : null,
});

/**
 * @param step      `{ description, type, subdomain? }`
 * @param context   see runStep
 * @param results   this step's successful query records so far
 */
export function actPromptInput({ step, context, results }) {
  const input = {
    step: {
      type: step.type,
      description: step.description,
      index: context.index ?? 0,
      total: context.count ?? 1,
      subdomain: step.subdomain ?? null,
    },
    user_message: context.userMessage ?? '',
    today: context.today ?? todayIso(),
    plan: context.plan ?? [],
    conversation: (context.conversation ?? []).map(({ role, content }) => ({ role, text: content })),
    previous_steps: (context.previousSteps ?? []).map(stepRecord),
    current_step_results: results,
    previous_turns: (context.recentTurns ?? []).map(({ turn, steps }) => ({ turn, steps: steps.map(stepRecord) })),
  };
  // Optional inputs the caller may give through the context.
  if (context.userProfile !== undefined) input.user_profile = context.userProfile;
  if (context.subdomainGuidance !== undefined) input.subdomain_guidance = context.subdomainGuidance;
  if (context.templates !== undefined) input.templates = context.templates;
  if (context.limits !== undefined) input.limits = context.limits;
  return input;
}
