/** Turning the variant mode on and off: start option, CLI flag, control route, reset. */
import axios from 'axios';
import { useSandbox } from '../../sandbox-fixture';
import { admin, client } from './helpers';
import { withSandboxCli } from '../cli-process';

describe('variant switch', () => {
	const sandbox = useSandbox();

	test('starts in the default mode; POST /__sandbox/variant turns it on and off; reset keeps it', async () => {
		const api = client(sandbox);
		expect((await admin(sandbox).get('/variant')).data).toEqual({ variant: false });
		expect((await api.get('/credits/balance')).status).toBe(200);

		const on = await admin(sandbox).post('/variant', { on: true });
		expect(on.status).toBe(200);
		expect(on.data).toEqual({ variant: true });
		expect((await api.get('/credits/balance')).status).toBe(404);
		expect((await api.get('/credits/wallet')).status).toBe(200);

		expect((await admin(sandbox).post('/reset')).status).toBe(200);
		expect((await admin(sandbox).get('/variant')).data).toEqual({ variant: true });
		expect((await api.get('/credits/wallet')).status).toBe(200);

		expect((await admin(sandbox).post('/variant', { on: false })).data).toEqual({ variant: false });
		expect((await api.get('/credits/wallet')).status).toBe(404);
	});

	test('the control route needs a boolean `on`', async () => {
		const bad = await admin(sandbox).post('/variant', { on: 'yes' });
		expect(bad.status).toBe(400);
		expect(bad.data.details.validation.fieldErrors.on).toBeDefined();
		expect((await admin(sandbox).get('/variant')).data).toEqual({ variant: false });
	});
});

describe('startSandbox({ variant: true })', () => {
	const sandbox = useSandbox({ variant: true });

	test('starts in the variant mode and a reset keeps it', async () => {
		expect((await admin(sandbox).get('/variant')).data).toEqual({ variant: true });
		await admin(sandbox).post('/reset');
		expect((await client(sandbox).get('/credits/wallet')).status).toBe(200);
	});
});

test('npm run sandbox -- --variant starts in the variant mode', async () => {
	await withSandboxCli(['--port', '0', '--variant'], async (info) => {
		const origin = new URL(info.baseUrl).origin;
		expect((await axios.get(`${origin}/__sandbox/variant`)).data).toEqual({ variant: true });
		const wallet = await axios.get(`${info.baseUrl}/credits/wallet`, {
			headers: { Authorization: `Bearer ${info.apiKey}` },
		});
		expect(wallet.data).toEqual({
			context: 'personal',
			available: 25,
			reserved: 0,
			unit: 'credit',
		});
	});
}, 30000);
