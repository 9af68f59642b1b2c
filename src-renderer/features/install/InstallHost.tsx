import { useEffect } from 'react';
import { useApp } from '../../store/useApp';
import { InstallDialog } from './InstallDialog';

/** The install dialog wherever it is opened from (catalogue, dropped bundle, switchboard:// link). Mounted once. */
export function InstallHost() {
  const installing = useApp((s) => s.installing);
  const openInstall = useApp((s) => s.openInstall);
  const watch = useApp((s) => s.watchInstallLinks);
  useEffect(() => watch(), [watch]);
  if (!installing) return null;
  return <InstallDialog source={installing} onClose={() => openInstall(undefined)} />;
}
