import { mergeRuns, runLine } from './publish';

test('a fresh run takes its scenarios from the earlier runs; a run left with none is dropped', () => {
	const earlier = [
		{ command: 'npm run bench', scenarios: ['1', '3', '7'], text: 'run A' },
		{ command: 'npm run bench:queue', scenarios: ['6'], text: 'run Q' },
	];
	const merged = mergeRuns(earlier, {
		command: 'npm run bench',
		scenarios: ['3', '6'],
		text: 'run B',
	});
	expect(merged.map(runLine)).toEqual([
		'npm run bench (scenarios 1, 7): run A',
		'npm run bench (scenarios 3, 6): run B',
	]);
	expect(mergeRuns(merged, { command: 'x', scenarios: [], text: '' })).toEqual(merged);
});

test('scenarios 10 and 11 are taken like the others (not as 1 and 0)', () => {
	const earlier = [{ command: 'npm run bench', scenarios: ['1', '10', '11'], text: 'run A' }];
	const merged = mergeRuns(earlier, { command: 'npm run bench', scenarios: ['11'], text: 'run B' });
	expect(merged.map(runLine)).toEqual([
		'npm run bench (scenarios 1, 10): run A',
		'npm run bench (scenarios 11): run B',
	]);
});
