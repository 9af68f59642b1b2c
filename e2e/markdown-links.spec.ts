import { expect, test } from './fixtures';
import { featuresServer, openServerPage } from './features-helpers';
import { expectReady } from './helpers';

// Markdown a server serves as a resource: a relative link resolves against the resource's URI, opens the resource
// it names when the server lists it, and is plain text otherwise — never raw Markdown source.
test.use({ mcpServers: { features: featuresServer('--docs') } });

test('a relative link in a Markdown resource opens the resource it names; an unlisted one is its text', async ({ page }) => {
  await expectReady(page, 'features');
  const serverPage = await openServerPage(page, 'features');
  await serverPage.getByRole('tab', { name: /^Resources/ }).click();
  const list = serverPage.getByRole('listbox', { name: 'Resources of features' });
  await serverPage.getByRole('searchbox', { name: 'Search resources' }).fill('readme.md');
  await list.getByRole('option').first().click();
  const viewer = serverPage.getByTestId('resource-viewer');
  await expect(viewer).toHaveAttribute('data-uri', 'fixture://docs/readme.md');
  const markdown = viewer.getByTestId('markdown');
  await expect(markdown).toContainText('See Project Structure and the guide.');
  await expect(markdown).not.toContainText('](');

  // Not listed by the server: plain text that says where it points.
  const guide = markdown.getByText('the guide');
  await expect(guide).toHaveAttribute('title', 'fixture://docs/guide.md');
  await expect(markdown.getByRole('link', { name: 'the guide' })).toHaveCount(0);

  // Listed: a link that opens it here.
  await markdown.getByRole('link', { name: 'Project Structure' }).click();
  await expect(viewer).toHaveAttribute('data-uri', 'fixture://docs/structure.md');
  await expect(viewer.getByTestId('markdown')).toContainText('the documentation');
});
