// Entry point of the served page: the viewer over this tab's Socket.IO connection.
import { connect } from "./connection.js";
import { startViewer } from "./viewer.js";

startViewer(connect);
