/**
 * The sandbox's reading of the specification: its request checks, built once per mode
 * (enum values the specification leaves open differ between the modes).
 */
import type { ModeChoices } from '../variant';
import { requestRules } from './requests';
import { templateRules } from './templates';
import { workflowRules } from './workflows';

function build(choices: ModeChoices) {
	return { ...requestRules(choices), ...templateRules(choices), ...workflowRules(choices) };
}

export type Rules = ReturnType<typeof build>;

const built = new Map<ModeChoices, Rules>();

export function rulesFor(choices: ModeChoices): Rules {
	let rules = built.get(choices);
	if (!rules) {
		rules = build(choices);
		built.set(choices, rules);
	}
	return rules;
}
