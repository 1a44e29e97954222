import './roster.policy';
import './roster.type';
import './roster.queries';
import './roster.mutations';
import './course.mutations';
