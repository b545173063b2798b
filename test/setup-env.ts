import * as path from 'path';

// n8n-core writes its instance config into the user folder: keep it inside the project.
process.env.N8N_USER_FOLDER ??= path.join(__dirname, '..', '.n8n-test');
