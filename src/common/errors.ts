// Error text for messages shown to people: the one place that turns anything thrown into a line.
// Pure.

/** The message of `error` when it is an Error, else its string form. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
