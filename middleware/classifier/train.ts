/** `gleaner train-classifier`. PLACEHOLDER until the classifier lands (issue 5). */
export async function trainClassifierCli(_opts: Record<string, unknown>): Promise<void> {
  throw new Error('train-classifier is not built yet');
}
