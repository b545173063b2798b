/**
 * One sandbox per test file: `useSandbox()` registers the jest hooks (start in beforeAll,
 * reset before each test, close in afterAll) and returns the sandbox. The returned object
 * reads through to the started sandbox, so it can be captured at the top of the file:
 *
 *   const sandbox = useSandbox();              // or useSandbox({ variant: true })
 *   test('...', async () => { client(sandbox).get('/envelopes') ... });
 */
import axios from 'axios';

import { startSandbox, type Sandbox, type SandboxOptions } from './sandbox/server';

export interface UseSandboxOptions extends SandboxOptions {
	/**
	 * When to reset the sandbox (POST /__sandbox/reset, which keeps the mode): before each
	 * test (default), after each test, or never.
	 */
	reset?: 'beforeEach' | 'afterEach' | false;
}

export function useSandbox(options: UseSandboxOptions = {}): Sandbox {
	const { reset = 'beforeEach', ...start } = options;
	let current: Sandbox | undefined;
	const started = (): Sandbox => {
		if (!current) throw new Error('the sandbox is used outside a test (it starts in beforeAll)');
		return current;
	};
	const resetIt = async () => {
		const answer = await axios.post(`${started().origin}/__sandbox/reset`);
		if (answer.status !== 200) throw new Error(`sandbox reset answered ${answer.status}`);
	};

	beforeAll(async () => {
		current = await startSandbox(start);
	});
	afterAll(async () => {
		await current?.close();
		current = undefined;
	});
	if (reset === 'beforeEach') beforeEach(resetIt);
	if (reset === 'afterEach') afterEach(resetIt);

	return {
		get baseUrl() {
			return started().baseUrl;
		},
		get origin() {
			return started().origin;
		},
		get apiKey() {
			return started().apiKey;
		},
		get orgApiKey() {
			return started().orgApiKey;
		},
		get disabledApiKey() {
			return started().disabledApiKey;
		},
		get webhookSecret() {
			return started().webhookSecret;
		},
		get state() {
			return started().state;
		},
		close: () => started().close(),
	};
}
