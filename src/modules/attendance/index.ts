import './attendance.type';
import './attendance.operations';
