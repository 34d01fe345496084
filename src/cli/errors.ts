// The one error type the CLI prints as a single line (no stack trace) with its own exit code.

/** A user-facing CLI failure: `message` is printed after "pi-fold: ", `exitCode` becomes the exit status. */
export class CliError extends Error {
	readonly exitCode: number;

	constructor(message: string, exitCode = 2) {
		super(message);
		this.name = "CliError";
		this.exitCode = exitCode;
	}
}
