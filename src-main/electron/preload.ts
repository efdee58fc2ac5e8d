// The preload: runs sandboxed before the page and exposes the contract bridge on window[BRIDGE_GLOBAL].
// Bundled into one CommonJS file, since a sandboxed preload can require nothing but 'electron'.
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL } from '../../src-shared/contract/contract';
import { createRawBridge } from './preload-bridge';

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createRawBridge(ipcRenderer));
