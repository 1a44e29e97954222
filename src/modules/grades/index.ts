import './grade.policy';
import './grade.type';
import './grade.queries';
import './grade.mutations';
