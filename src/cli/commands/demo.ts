// Placeholder for `pi-fold demo`; replaced by its real implementation.
import { CliError } from "../errors.ts";

export const command = {
	summary: "demo",
	async run(_args: string[]): Promise<number> {
		throw new CliError("demo is not built yet");
	},
};
