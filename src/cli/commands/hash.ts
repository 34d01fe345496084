// Placeholder for `pi-fold hash`; replaced by its real implementation.
import { CliError } from "../errors.ts";

export const command = {
	summary: "hash",
	async run(_args: string[]): Promise<number> {
		throw new CliError("hash is not built yet");
	},
};
