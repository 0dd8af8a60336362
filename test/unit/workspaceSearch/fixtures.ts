import { readdirSync } from 'node:fs';
import { defaultConfig } from '../../../src/core/config';
import type { ScanOutcome } from '../../../src/core/workspaceSearch/report';
import { scanWorkspace, type ScanControl, type ScanRequest } from '../../../src/core/workspaceSearch/scan';

/** A scan request for the directory `root` (a realpath) with the default settings. */
export function scanRequest(root: string, query: string, overrides: Partial<ScanRequest> = {}): ScanRequest {
  return {
    rootPath: root,
    rootRelPath: '.',
    rootKind: 'directory',
    excludedDirectories: defaultConfig().workspaceSearch.excludedDirectories,
    platform: 'linux',
    query,
    caseSensitive: false,
    maxResults: 100,
    ...overrides,
  };
}

/** Runs the scan on the calling thread (the worker's code, without the worker). */
export function scan(root: string, query: string, overrides: Partial<ScanRequest> = {}, control: Partial<ScanControl> = {}): ScanOutcome {
  return scanWorkspace(scanRequest(root, query, overrides), { isCancelled: () => false, ...control });
}

/** File descriptors this process has open (Linux), to show a scan closes what it opens. */
export function openDescriptorCount(): number {
  return readdirSync('/proc/self/fd').length;
}
