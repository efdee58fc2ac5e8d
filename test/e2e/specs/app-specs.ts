// The end-to-end specs in the order they run (each builds on the last: sign in, then search, then
// download), shared by the web-mode suite and the Electron suite so both shells are held to the same list.
import type { E2eContext } from '../e2e-context';
import { meetsAccessibilityRulesOnEveryScreen } from './accessibility.spec';
import { browsesBothInstruments, checksEveryFilterInline, marksResultsStaleWhenTheFormChanges, searchesWithFilters } from './browse.spec';
import { syncsVerifiesAndExportsACampaign } from './campaigns.spec';
import { downloadsASelectedRange, downloadsAllResultsIntoTheFolder, pausesAndResumesTheQueue, retriesFilesThatFailed } from './downloads.spec';
import { looksAtAUcompFileWithOverlays, looksAtDownloadedFilesAndPlaysThem } from './quicklook.spec';
import { exportsAMovieFromThePlayer } from './movie.spec';
import { savesSettingsAndRefusesBadOnes } from './settings.spec';
import { registeredEmailSignsIn, unknownEmailIsToldWhereToRegister } from './sign-in.spec';
import { showsCoverageWithGaps } from './timeline.spec';

export const APP_SPECS: readonly (readonly [title: string, spec: (context: E2eContext) => Promise<void>])[] = [
  ['says in one sentence where to register an unknown e-mail', unknownEmailIsToldWhereToRegister],
  ['signs in with a registered e-mail', registeredEmailSignsIn],
  ['browses both instruments; filters follow the product', browsesBothInstruments],
  ['checks every filter kind inline', checksEveryFilterInline],
  ['searches with UCoMP filters', searchesWithFilters],
  ['marks results stale when the form changes; the same values make them current again', marksResultsStaleWhenTheFormChanges],
  ['shows the coverage timeline with the nights as gaps; a dragged span narrows the dates', showsCoverageWithGaps],
  ['downloads all results into the folder, byte for byte', downloadsAllResultsIntoTheFolder],
  ['downloads a shift-click range of results', downloadsASelectedRange],
  ['pauses and resumes the queue', pausesAndResumesTheQueue],
  ['retries files that failed on injected faults', retriesFilesThatFailed],
  ['opens a downloaded file in the quick-look and plays the downloaded files', looksAtDownloadedFilesAndPlaysThem],
  ['opens a 5:4 UCoMP file in the quick-look with the limb a circle where its header puts the Sun', looksAtAUcompFileWithOverlays],
  ['exports a movie of 60 frames from the player and reads it back', exportsAMovieFromThePlayer],
  ['saves settings and refuses bad ones', savesSettingsAndRefusesBadOnes],
  ['saves a search as a campaign, syncs it into its layout, verifies and exports it', syncsVerifiesAndExportsACampaign],
  ['has no serious or critical accessibility violations on any screen, light and dark', meetsAccessibilityRulesOnEveryScreen],
];
