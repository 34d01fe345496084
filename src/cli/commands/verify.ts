// Placeholder for `pi-fold verify`; replaced by its real implementation.
import { CliError } from "../errors.ts";

export const command = {
	summary: "verify",
	async run(_args: string[]): Promise<number> {
		throw new CliError("verify is not built yet");
	},
};
