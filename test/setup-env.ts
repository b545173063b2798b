/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import * as path from 'path';

// n8n-core writes its instance config into the user folder: keep it inside the project.
process.env.N8N_USER_FOLDER ??= path.join(__dirname, '..', '.n8n-test');
// Failed items are expected in many tests; n8n's logger would print each one.
process.env.N8N_LOG_LEVEL ??= 'silent';
