// Entry point: connect to the app (bridge or WebSocket) and mount the window.
import { mount } from 'svelte';
import App from './shell/App.svelte';
import { createApiClient } from './lib/api';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks the #app element.');

const client = createApiClient();
window.addEventListener('pagehide', () => client.close());

mount(App, { target, props: { client } });
