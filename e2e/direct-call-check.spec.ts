import { expect, test } from './fixtures';
import { expectReady, lastCard, lastNotice, send } from './helpers';

// A direct call typed in the composer is checked against the tool's input schema before it goes to the server, as
// the tool's form checks it.
test('/add with no arguments is not sent: the problems are named, the line stays to be fixed', async ({ page }) => {
  await expectReady(page, 'calculator');
  await send(page, '/add');
  const notice = lastNotice(page);
  await expect(notice).toHaveAttribute('data-tone', 'error');
  await expect(notice).toContainText('/add was not sent');
  await expect(notice).toContainText('• a: Required.');
  await expect(notice).toContainText('• b: Required.');
  await expect(page.getByTestId('call-card')).toHaveCount(0);
  await expect(page.getByTestId('chat-input')).toHaveValue('/add');

  await send(page, '/add {"a":"two","b":3}');
  await expect(lastNotice(page)).toContainText('• a: Must be a number.');
  await expect(page.getByTestId('call-card')).toHaveCount(0);

  await send(page, '/add {"a":2,"b":3}');
  await expect(lastCard(page).getByTestId('result-text')).toHaveText('5');
});
