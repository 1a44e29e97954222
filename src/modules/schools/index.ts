import './school.policy';
import './school.type';
import './school.queries';
import './school.mutations';
