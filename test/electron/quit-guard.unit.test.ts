// Quitting with downloads under way asks first; the core is closed before the app exits.
import { describe, expect, it, vi } from 'vitest';
import { createQuitGuard, quitQuestion } from '../../src-main/electron/quit-guard';

function guardWith(active: number, answer: boolean) {
  const steps: string[] = [];
  const options = {
    countActiveDownloads: vi.fn(async () => active),
    confirmQuit: vi.fn(async (message: string, detail: string) => {
      steps.push(`asked: ${message} ${detail}`);
      return answer;
    }),
    shutDown: vi.fn(async () => {
      steps.push('core closed');
    }),
    exit: vi.fn(() => {
      steps.push('exit');
    }),
  };
  return { guard: createQuitGuard(options), options, steps };
}

describe('the quit guard', () => {
  it('asks when downloads are in progress, then closes the core and exits', async () => {
    const { guard, steps } = guardWith(3, true);
    await guard.requestQuit();
    expect(steps).toEqual(['asked: 3 downloads are in progress. Quit anyway? They will resume next time.', 'core closed', 'exit']);
    expect(guard.mayQuit).toBe(true);
  });

  it('stays open when the user cancels', async () => {
    const { guard, options } = guardWith(2, false);
    await guard.requestQuit();
    expect(options.shutDown).not.toHaveBeenCalled();
    expect(options.exit).not.toHaveBeenCalled();
    expect(guard.mayQuit).toBe(false);
  });

  it('does not ask when nothing is downloading', async () => {
    const { guard, options, steps } = guardWith(0, false);
    await guard.requestQuit();
    expect(options.confirmQuit).not.toHaveBeenCalled();
    expect(steps).toEqual(['core closed', 'exit']);
  });

  it('does not ask on a signal, but still closes the core first', async () => {
    const { guard, options, steps } = guardWith(5, false);
    await guard.requestQuit({ ask: false });
    expect(options.confirmQuit).not.toHaveBeenCalled();
    expect(steps).toEqual(['core closed', 'exit']);
  });

  it('asks once when quit is requested twice while the question is open', async () => {
    const { guard, options } = guardWith(1, true);
    await Promise.all([guard.requestQuit(), guard.requestQuit()]);
    expect(options.confirmQuit).toHaveBeenCalledOnce();
    expect(options.shutDown).toHaveBeenCalledOnce();
  });

  it('still exits when closing the core fails', async () => {
    const { guard, options } = guardWith(0, true);
    options.shutDown.mockRejectedValueOnce(new Error('disk gone'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await guard.requestQuit();
    expect(options.exit).toHaveBeenCalledOnce();
    error.mockRestore();
  });

  it('words the question for one download and for several', () => {
    expect(quitQuestion(1)).toEqual({ message: '1 download is in progress. Quit anyway?', detail: 'It will resume next time.' });
    expect(quitQuestion(7).message).toBe('7 downloads are in progress. Quit anyway?');
  });
});
