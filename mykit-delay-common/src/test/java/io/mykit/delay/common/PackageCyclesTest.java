package io.mykit.delay.common;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * No package of the shared model's module uses another that uses it back, directly or round about: each package can be
 * read, and changed, knowing only the packages below it. The pattern makes every package its own slice, the module's
 * top one included.
 */
@AnalyzeClasses(packages = "io.mykit.delay.common", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {

    @ArchTest
    static final ArchRule packages_are_free_of_cycles =
            slices().matching("io.mykit.delay.(**)").should().beFreeOfCycles();
}
