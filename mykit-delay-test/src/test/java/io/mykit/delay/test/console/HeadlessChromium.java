package io.mykit.delay.test.console;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium with a profile of its own: Debian's chromium and chromium-driver when installed, otherwise the
 * Chrome Selenium Manager finds (no skipping: without either the test fails).
 */
final class HeadlessChromium implements AutoCloseable {
    private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");

    private final Path profile;
    private final WebDriver driver;

    HeadlessChromium() throws IOException {
        boolean debianChromium = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        profile = Files.createTempDirectory("foreign-page-chromium");
        ChromeOptions options = new ChromeOptions();
        if (debianChromium) {
            options.setBinary(CHROMIUM.toFile());
        }
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile);
        driver = debianChromium
                ? new ChromeDriver(
                        new ChromeDriverService.Builder()
                                .usingDriverExecutable(CHROMEDRIVER.toFile())
                                .usingAnyFreePort()
                                .build(),
                        options)
                : new ChromeDriver(options);
    }

    WebDriver driver() {
        return driver;
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }
}
