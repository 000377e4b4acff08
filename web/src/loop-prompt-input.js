// The one place that knows the shape core.buildActPrompt takes: the loop's
// step, context and this step's tool results → the prompt assembly input.

/** Today as YYYY-MM-DD in UTC; the prompt needs the full date for relative days. */
export const todayIso = () => new Date().toISOString().slice(0, 10);

/**
 * @param step      `{ description, type, subdomain? }`
 * @param context   see runStep
 * @param results   this step's successful query records so far
 */
export function actPromptInput({ step, context, results, registry, domain }) {
  return {
    step: {
      index: context.index ?? 0,
      count: context.count ?? 1,
      description: step.description,
      type: step.type,
      subdomain: step.subdomain ?? null,
    },
    user_message: context.userMessage ?? '',
    today: context.today ?? todayIso(),
    note_from_previous_step: context.previousNote ?? null,
    previous_steps: context.previousSteps ?? [],
    previous_turns: context.recentTurns ?? [],
    current_step_results: results,
    conversation: context.conversation ?? [],
    registry,
    domain,
  };
}
