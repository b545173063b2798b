/** The e-stamp configuration (specification 2.6). */
import { z } from 'zod/v3';

import { articleIssue } from '../estamp/articles';
import { ESTAMP_STATE_CODES, getEstampState, isIndianStateName, MIN_DUTY } from '../estamp/states';
import { email, required, tenDigitMobile } from './primitives';

export const EstampStateCodeSchema = z.enum(ESTAMP_STATE_CODES);
export const EstampPayeeSchema = z.enum(['first-party', 'second-party']);

export const EstampPartySchema = z.object({
	name: required('is required (the legal name)'),
	email: email(),
	mobile: tenDigitMobile().optional(),
	address: required('is required'),
});

export const EstampShippingSchema = z.object({
	name: required('is required'),
	address: required('is required'),
	city: required('is required'),
	state: required('is required').superRefine((value, ctx) => {
		if (/^[A-Za-z]{2}$/.test(value.trim())) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be the full state name (such as "Karnataka"), not a two-letter code',
			});
		} else if (!isIndianStateName(value)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be the full name of an Indian state or union territory, such as "Karnataka"',
			});
		}
	}),
	pincode: z.string().regex(/^\d{6}$/, 'must be a 6-digit PIN code'),
	mobile: tenDigitMobile(),
});

const WHOLE_NUMBER = /^\d+$/;

export const EstampConfigSchema = z
	.object({
		state: EstampStateCodeSchema,
		// Checked against the state's catalog below.
		article: z.string(),
		amount: z
			.string()
			.regex(WHOLE_NUMBER, 'must be a whole number of rupees written as a string, such as "100"'),
		considerationAmount: z
			.string()
			.regex(WHOLE_NUMBER, 'must be a non-negative whole number written as a string, such as "0"'),
		payee: EstampPayeeSchema.default('first-party'),
		hardcopy: z.enum(['n', 'y']).default('n'),
		firstParty: EstampPartySchema,
		secondParty: EstampPartySchema,
		shipping: EstampShippingSchema.optional(),
	})
	.superRefine((config, ctx) => {
		const state = getEstampState(config.state);
		if (state) {
			const problem = articleIssue(state.code, config.article);
			if (problem)
				ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['article'], message: problem });

			if (WHOLE_NUMBER.test(config.amount)) {
				const amount = Number(config.amount);
				if (amount < MIN_DUTY || amount > state.maxDuty) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: ['amount'],
						message: `must be a whole number from ${MIN_DUTY} to ${state.maxDuty} for state ${state.code}${state.maxDutyShown ? '' : ` (the specification's ceiling: the maximum of ${state.code} is not published, so a lower one is left to the service)`}`,
					});
				}
			}
		}

		const first = config.firstParty.name.trim().toLowerCase();
		const second = config.secondParty.name.trim().toLowerCase();
		if (first !== '' && first === second) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['secondParty', 'name'],
				message: 'must differ from firstParty.name (the two legal names must be different)',
			});
		}

		if (config.hardcopy === 'y' && !config.shipping) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['shipping'],
				message: "is required when hardcopy is 'y'",
			});
		}
	});

/** E-stamping switched on needs its configuration (envelope signing settings and workflow execution). */
export function checkEstampPresence(
	settings: { estampEnabled?: boolean; estampConfig?: unknown },
	ctx: z.RefinementCtx,
): void {
	if (settings.estampEnabled === true && settings.estampConfig === undefined) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['estampConfig'],
			message: 'is required (complete) when estampEnabled is true',
		});
	}
}
