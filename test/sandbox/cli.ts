/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Runs the sandbox until killed:
 *   npm run --silent sandbox -- --port <n> [--host 127.0.0.1] [--variant]
 *       [--latency <ms>] [--rate-limit <requests per second per key>] [--capacity <slots>,<max in flight>]
 * The fault options are the start settings of POST /__sandbox/faults (a reset returns to them).
 * The first stdout line is one JSON object {baseUrl, apiKey, orgApiKey, disabledApiKey, webhookSecret}.
 */
import { startSandbox } from './server';
import type { FaultInput } from './state';

function fail(message: string): never {
	process.stderr.write(`${message}\n`);
	process.exit(2);
}

function option(name: string): string | undefined {
	const args = process.argv.slice(2);
	const i = args.indexOf(`--${name}`);
	if (i >= 0) return args[i + 1];
	const inline = args.find((a) => a.startsWith(`--${name}=`));
	return inline?.slice(name.length + 3);
}

async function main(): Promise<void> {
	const portText = option('port') ?? '0';
	const port = Number(portText);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		process.stderr.write(`--port must be an integer from 0 to 65535, got ${portText}\n`);
		process.exit(2);
	}
	const faults: FaultInput = {};
	const whole = (name: string, min: number): number | undefined => {
		const text = option(name);
		if (text === undefined) return undefined;
		const value = Number(text);
		if (!Number.isInteger(value) || value < min)
			fail(`--${name} must be an integer of at least ${min}, got ${text}`);
		return value;
	};
	faults.latencyMs = whole('latency', 0);
	faults.rateLimitPerSecond = whole('rate-limit', 1);
	const capacity = option('capacity');
	if (capacity !== undefined) {
		const [slots, maxInFlight] = capacity.split(',').map(Number);
		if (
			!Number.isInteger(slots) ||
			!Number.isInteger(maxInFlight) ||
			slots < 1 ||
			maxInFlight < slots
		) {
			fail(
				`--capacity must be <slots>,<max in flight> (integers, 1 <= slots <= max in flight), got ${capacity}`,
			);
		}
		faults.capacity = { slots, maxInFlight };
	}
	const sandbox = await startSandbox({
		port,
		host: option('host'),
		variant: process.argv.slice(2).includes('--variant'),
		faults,
	});
	process.stdout.write(
		`${JSON.stringify({
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			orgApiKey: sandbox.orgApiKey,
			disabledApiKey: sandbox.disabledApiKey,
			webhookSecret: sandbox.webhookSecret,
		})}\n`,
	);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((e) => {
	process.stderr.write(`sandbox failed to start: ${(e as Error).message}\n`);
	process.exit(1);
});
