package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.RefusedSetting;
import io.distlock.tck.RefusedSettingRules;
import io.distlock.tck.TckHarness;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The kit's §22 through the MariaDB client in the default build ({@link MariaDbClientTckTest}, which runs it with the
 * rest of the kit, is tagged slow): {@code useAffectedRows=false} in every spelling that client takes is refused.
 */
@ExtendWith(Databases.class)
class MariaDbClientRefusedSettingsTest extends TckHarness implements RefusedSettingRules {

    private static final String URI =
            Databases.withOptions(Databases.mariadb(), "distlock.table=" + Databases.uniqueTable("refused_mc"));

    @Override
    protected LockStore newClient() {
        return LockStore.open(URI);
    }

    @Override
    public List<RefusedSetting> refusedSettings() {
        return AffectedRowsSpellings.mariadbClient(URI);
    }
}
