import './grading-group.policy';
import './grading-group.type';
import './grading-group.queries';
import './grading-group.mutations';
