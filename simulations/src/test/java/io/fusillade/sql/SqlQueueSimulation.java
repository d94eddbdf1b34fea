package io.fusillade.sql;

import io.fusillade.scenarios.sql.SqlQueueRun;

/**
 * Reference simulation, Picostress {@code queue} mode: {@code mvn -pl simulations gatling:test
 * -Dgatling.simulationClass=io.fusillade.sql.SqlQueueSimulation
 * -Dfusillade.workload=path/to/workload.yml -Dfusillade.users=10}. See {@link SqlQueueRun}.
 */
public class SqlQueueSimulation extends SqlQueueRun {}
