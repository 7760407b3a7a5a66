package io.mykit.delay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The runnable gateway. */
@SpringBootApplication
public class MykitDelayApplication {
    public static void main(String[] args) {
        SpringApplication.run(MykitDelayApplication.class, args);
    }
}
