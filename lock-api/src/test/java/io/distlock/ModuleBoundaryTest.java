package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module {@code io.distlock} exports the API and the SPI only, without qualification, and finds stores through
 * the ServiceLoader. Surefire runs these tests on the module path, so the descriptor read here is the one users get.
 */
class ModuleBoundaryTest {

    @Test
    void onlyTheApiAndTheSpiAreExported() {
        Module module = LockStore.class.getModule();
        assertThat(module.isNamed()).as("tests run on the module path").isTrue();
        ModuleDescriptor descriptor = module.getDescriptor();
        assertThat(descriptor.name()).isEqualTo("io.distlock");
        assertThat(descriptor.exports()).allMatch(e -> !e.isQualified());
        Set<String> exported = descriptor.exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
        assertThat(exported).containsExactlyInAnyOrder("io.distlock", "io.distlock.spi");
        assertThat(descriptor.uses()).containsExactly("io.distlock.spi.LockStoreProvider");
        assertThat(descriptor.provides()).anyMatch(p -> p.service().equals("io.distlock.spi.LockStoreProvider")
                && p.providers().equals(java.util.List.of("io.distlock.mem.MemLockStoreProvider")));
    }
}
