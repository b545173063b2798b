import { useProbeHarness } from '../transport/setup';

describe('reads once per node run (oncePerRun)', () => {
	const { h, probe } = useProbeHarness();

	it('sends the read once for a 20-item batch, every item gets the answer; the next run reads again', async () => {
		const created = await h().api<{ id: string }>('POST', '/envelopes', {
			fileName: 'a.pdf',
			title: 'Shared',
		});
		const args = { method: 'GET', endpoint: `/envelopes/${created.id}/status`, oncePerRun: true };
		const input = Array.from({ length: 20 }, () => ({ json: {} }));
		const before = (await h().requests()).length;

		const first = await probe('request', args, input);
		expect(first.error).toBeUndefined();
		expect(first.items('Probe')).toHaveLength(20);
		expect(first.items('Probe').every((item) => item.json.envelopeId === created.id)).toBe(true);
		await probe('request', args, input);
		const reads = (await h().requests()).slice(before).filter((r) => r.path.endsWith('/status'));
		expect(reads).toHaveLength(2);
	});
});
