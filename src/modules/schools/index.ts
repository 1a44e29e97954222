import './school.type';
import './school.queries';
import './school.mutations';
