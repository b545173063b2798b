/** /api/v1/credits routes of the sandbox. */
import { Router } from 'express';
import type { SandboxState } from '../state';

export default function creditsRoutes(_state: SandboxState): Router {
	const router = Router();
	return router;
}
