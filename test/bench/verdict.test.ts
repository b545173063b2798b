import {
	markdownTable,
	median,
	mergeRows,
	problems,
	rateFloorS,
	type Row,
	targetOf,
} from './verdict';

const row = (over: Partial<Row>): Row => ({
	scenario: '1',
	contender: 'x',
	kind: 'other',
	value: 1,
	failed: 0,
	duplicates: 0,
	rateLimited: 0,
	serverErrors: 0,
	requests: 500,
	...over,
});

describe('bench targets', () => {
	test('deliveries (16-21): the limit the scenario set, with what it comes from, and the p95 bound', () => {
		const node = row({
			scenario: '17',
			contender: 'this trigger, 8 at once',
			kind: 'node',
			value: 60,
			limit: 50,
			limitAgainst: 'Webhook + Code',
			p95Ms: 700,
			p95LimitMs: 600,
		});
		expect(targetOf([node], '17')).toEqual({ limit: 50, against: 'Webhook + Code' });
		expect(problems([node])).toEqual([
			'17: this trigger, 8 at once answered 95 % within 700.0 ms, over the bound 600.0 ms',
			'17: this trigger, 8 at once 60.0 ms/delivery, over the target 50.0 ms/delivery (Webhook + Code)',
		]);
		expect(problems([{ ...node, value: 50, p95Ms: 600 }])).toEqual([]);
	});

	test('side by side: this node at most 1.05 x the best other contender that ends clean', () => {
		const rows = [
			row({ contender: 'this node', kind: 'node', value: 2.0 }),
			row({ contender: 'HTTP Request, defaults', kind: 'httpDefault', value: 0.5, failed: 500 }), // lost items: not a yardstick
			row({ contender: 'HTTP Request, tuned', kind: 'httpTuned', value: 1.95 }),
			row({ contender: 'raw', kind: 'raw', value: 1.5 }), // outside n8n: shown, not the yardstick
		];
		expect(targetOf(rows, '1')).toEqual({
			limit: 1.05 * 1.95,
			against: '1.05 x HTTP Request, tuned',
		});
		expect(targetOf(rows, '1', ['httpDefault', 'httpTuned', 'raw'])).toEqual({
			limit: 1.05 * 1.5,
			against: '1.05 x raw',
		});
		expect(problems(rows)).toEqual([]);
		rows[2].value = 1.8;
		expect(problems(rows)).toEqual([
			'1: this node 2.00 s, over the target 1.89 s (1.05 x HTTP Request, tuned)',
		]);
	});

	test('scenario 5 allows 1.1 x; a node that loses an item or creates one twice misses whatever its time', () => {
		const rows = [
			row({ scenario: '5', contender: 'this node', kind: 'node', value: 1.09 }),
			row({ scenario: '5', contender: 'tuned', kind: 'httpTuned', value: 1 }),
		];
		expect(problems(rows)).toEqual([]);
		rows[0].duplicates = 1;
		expect(problems(rows)).toEqual(['5: this node ended with 0 items failed and 1 created twice']);
	});

	test('fixed limits (queue floor, memory), the raw-loop factor of Return All and the bare HMAC factor of the signature check', () => {
		const rows = [
			row({ scenario: '6', contender: 'this node', kind: 'node', value: 16, limit: 15 }),
			row({ scenario: '7', contender: 'this node', kind: 'node', value: 1.1 }),
			row({ scenario: '7', contender: 'raw paging loop', kind: 'raw', value: 1 }),
			row({ scenario: '9', contender: 'this node', kind: 'node', value: 0.2 }),
			row({ scenario: '9', contender: 'bare HMAC', kind: 'raw', value: 0.17 }),
		];
		expect(problems(rows)).toEqual(['6: this node 16.00 s, over the target 15.00 s (fixed limit)']);
		// The signature check against the bare HMAC of the same body on the same CPU.
		const [node, bare] = rows.filter((r) => r.scenario === '9');
		const slow = [node, { ...bare, value: 0.15 }];
		expect(problems(slow)).toEqual([
			'9: this node 0.2000 ms, over the target 0.1875 ms (1.25 x bare HMAC)',
		]);
	});

	test('scenarios 12-14: 1.05 x the rate floor, and no slower than the best HTTP Request contender; every limited scenario holds its 429s to 5 % of the accepted', () => {
		expect(rateFloorS(200, 60, 25, 60)).toBeCloseTo(180.025, 6);
		expect(rateFloorS(100, 5, 25)).toBeCloseTo(19.025, 6);
		const rows = [
			row({ scenario: '12', contender: 'this node', kind: 'node', value: 9.3, floor: 9.025 }),
			row({ scenario: '12', contender: 'HTTP, 5 per 1000 ms', kind: 'httpTuned', value: 9.8 }),
		];
		// the floor's 1.05 x (9.48 s) is the tighter
		expect(targetOf(rows, '12')?.limit).toBeCloseTo(1.05 * 9.025, 6);
		rows[1].value = 9.2; // HTTP Request faster than 1.05 x the floor: it is the target
		expect(targetOf(rows, '12')).toEqual({ limit: 9.2, against: 'HTTP, 5 per 1000 ms' });
		expect(problems(rows)).toEqual([
			'12: this node 9.30 s, over the target 9.20 s (HTTP, 5 per 1000 ms)',
		]);
		rows[1].value = 9.8;
		rows[0].requests = 53;
		rows[0].rateLimited = 3; // 3 of 50 accepted: 6 %
		expect(problems(rows)).toEqual([
			'12: this node had 3 requests refused (429) for 50 accepted, over 5 %',
		]);
		rows[0].requests = 52;
		rows[0].rateLimited = 2;
		expect(problems(rows)).toEqual([]);
		// 13: this node reads the template once before its 100 calls, a window more at 5/s
		const creates = [
			row({ scenario: '13', contender: 'this node', kind: 'node', value: 19.98, floor: 20.025 }),
			row({ scenario: '13', contender: 'HTTP', kind: 'httpTuned', value: 19.94, floor: 19.025 }),
		];
		expect(targetOf(creates, '13')).toEqual({
			limit: 19.94 + 1,
			against: "HTTP + 1.00 s for this node's requests beyond its",
		});
		// the unlimited scenario counts no 429s against the node
		expect(problems([row({ contender: 'this node', kind: 'node', rateLimited: 40 })])).toEqual([]);
	});

	test('scenarios 10 and 11: 1.05 x the rate floor of the row, computed from requests, rate and round trip; memory bounded', () => {
		expect(rateFloorS(500, 100, 25)).toBeCloseTo(4.025, 6);
		expect(rateFloorS(20_000, 100, 25)).toBeCloseTo(199.025, 6);
		expect(rateFloorS(501, 100, 25)).toBeCloseTo(5.025, 6);
		const rows = [
			row({ scenario: '10', contender: 'this node', kind: 'node', value: 4.2, floor: 4.025 }),
			row({ scenario: '10', contender: 'HTTP', kind: 'httpTuned', value: 3 }), // not the yardstick here
			row({
				scenario: '11',
				contender: 'this node',
				kind: 'node',
				value: 210,
				floor: 199.025,
				memoryMb: 500,
				memoryLimitMb: 490,
			}),
		];
		expect(targetOf(rows, '10')).toEqual({
			limit: 1.05 * 4.025,
			against: '1.05 x the rate floor 4.03 s',
		});
		expect(problems(rows)).toEqual([
			"11: this node grew n8n's peak RSS by 500.0 MB, over the bound 490.0 MB",
			'11: this node 210.00 s, over the target 208.98 s (1.05 x the rate floor 199.03 s)',
		]);
		expect(markdownTable(rows)).toContain("n8n's peak RSS +500.0 MB (bound 490.0 MB)");
		expect(mergeRows([], [rows[2], rows[0]]).map((r) => r.scenario)).toEqual(['10', '11']);
	});

	test('nothing to compare with: no target, only the clean check', () => {
		const rows = [
			row({ contender: 'this node', kind: 'node', value: 9 }),
			row({ contender: 'HTTP Request', kind: 'httpDefault', failed: 3 }),
		];
		expect(targetOf(rows, '1')).toBeUndefined();
		expect(problems(rows)).toEqual([]);
	});

	test('median, merge of a partial run, and the table', () => {
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 2, 3])).toBe(2.5);
		const old = [
			row({ scenario: '6', contender: 'old queue' }),
			row({ scenario: '1', contender: 'old read' }),
		];
		const merged = mergeRows(old, [
			row({ scenario: '1', contender: 'new read' }),
			row({ scenario: '3', contender: 'new create' }),
		]);
		expect(merged.map((r) => r.contender)).toEqual(['new read', 'new create', 'old queue']);
		const rows = [
			row({ contender: 'this node', kind: 'node', value: 2, runs: [2, 1.9, 2.5] }),
			row({ contender: 'HTTP', kind: 'httpDefault', value: 1 }),
			row({ contender: 'raw', kind: 'raw', value: 0.5 }),
		];
		const table = markdownTable(rows);
		expect(table.split('\n')).toHaveLength(5);
		expect(table).toContain(
			'| 1 500 reads, no limit, 25 ms | this node | 2.00 s | MISSED 1.05 | 4.00 | 0 | 0 | 0 | 0 | 500 | median of 2.00 / 1.90 / 2.50 |',
		);
	});
});
