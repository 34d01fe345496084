// Placeholder for `pi-fold bench`; replaced by its real implementation.
import { CliError } from "../errors.ts";

export const command = {
	summary: "bench",
	async run(_args: string[]): Promise<number> {
		throw new CliError("bench is not built yet");
	},
};
